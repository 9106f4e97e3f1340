/**
 * `@mcpgen/runtime/server/lambda`: a generated server's fetch handler on AWS Lambda, for the HTTP
 * events of function URLs and API Gateway HTTP APIs (payload 2.0), answered buffered.
 */
export { lambdaHandler, type LambdaHttpEvent, type LambdaHttpResult, type RequestHandler } from "./lambda.js";
