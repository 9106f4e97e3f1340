/** The first line of a pulled manifest: `pull --force` is needed to overwrite a file without it. */
export const PULLED_MARK = "# Pulled by mcpgen from ";
