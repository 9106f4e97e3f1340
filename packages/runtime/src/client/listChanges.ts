/**
 * `onListChanged(kind, handler)` of the generated client, over either SDK line and era. 2025 era:
 * the session's notifications/<kind>/list_changed (SDK v2: its notification handler for the
 * method; SDK 1.x: its fallback notification handler, which needs no zod schema). 2026-07-28: a
 * subscriptions/listen stream of the SDK v2 Client asking for that kind, whose notifications the
 * SDK dispatches to the same handler. Handlers of one kind share one registration (the SDK keeps
 * one handler per method).
 */
import type { JsonObject } from "../shared/definition.js";

export type ListChangeKind = "tools" | "resources" | "prompts";

/** What a registration answers: stop it (a 2026-07-28 stream is closed with its last handler). */
export interface ListChangeSubscription {
  close(): Promise<void>;
}

/** The SDK Client members used here (both lines have the fallback; v2 has the rest). */
export interface ListChangeSdk {
  getProtocolEra?: (() => "legacy" | "modern" | undefined) | undefined;
  fallbackNotificationHandler?: ((notification: { method: string; params?: JsonObject }) => Promise<void>) | undefined;
}

interface SdkV2Notifications {
  setNotificationHandler(method: string, handler: () => void): void;
  listen(filter: JsonObject): Promise<{ close(): Promise<void> }>;
}

const FILTER: Record<ListChangeKind, string> = { tools: "toolsListChanged", resources: "resourcesListChanged", prompts: "promptsListChanged" };

export class ListChanges {
  private readonly handlers: Record<ListChangeKind, Set<() => void>> = { tools: new Set(), resources: new Set(), prompts: new Set() };
  private readonly installed = new Set<ListChangeKind>();
  private readonly streams = new Map<ListChangeKind, Promise<{ close(): Promise<void> }>>();
  private fallbackInstalled = false;

  constructor(private readonly sdk: ListChangeSdk) {}

  async on(kind: ListChangeKind, handler: () => void): Promise<ListChangeSubscription> {
    const handlers = this.handlers[kind];
    handlers.add(handler);
    const v2 = this.v2();
    if (v2 === undefined) this.installFallback();
    else if (!this.installed.has(kind)) {
      this.installed.add(kind);
      v2.setNotificationHandler(`notifications/${kind}/list_changed`, () => this.dispatch(kind));
    }
    if (v2 !== undefined && this.sdk.getProtocolEra?.() === "modern" && !this.streams.has(kind)) {
      const opened = v2.listen({ [FILTER[kind]]: true });
      this.streams.set(kind, opened);
      try {
        await opened;
      } catch (error) {
        this.streams.delete(kind);
        handlers.delete(handler);
        throw error;
      }
    }
    return {
      close: async () => {
        handlers.delete(handler);
        const stream = this.streams.get(kind);
        if (handlers.size > 0 || stream === undefined) return;
        this.streams.delete(kind);
        await (await stream).close();
      },
    };
  }

  private dispatch(kind: ListChangeKind): void {
    for (const handler of [...this.handlers[kind]]) handler();
  }

  /** The SDK v2 Client's members, when it is one (SDK 1.x has no getProtocolEra nor listen). */
  private v2(): SdkV2Notifications | undefined {
    const sdk: object = this.sdk;
    if (typeof this.sdk.getProtocolEra !== "function") return undefined;
    const set: unknown = Reflect.get(sdk, "setNotificationHandler");
    const listen: unknown = Reflect.get(sdk, "listen");
    if (typeof set !== "function" || typeof listen !== "function") return undefined;
    return {
      setNotificationHandler: (method, handler) => void Reflect.apply(set, sdk, [method, handler]),
      listen: (filter) => Reflect.apply(listen, sdk, [filter]) as Promise<{ close(): Promise<void> }>,
    };
  }

  /** SDK 1.x: the fallback handler sees notifications no handler claims (list_changed among them); one set before is kept. */
  private installFallback(): void {
    if (this.fallbackInstalled) return;
    this.fallbackInstalled = true;
    const before = this.sdk.fallbackNotificationHandler;
    this.sdk.fallbackNotificationHandler = async (notification) => {
      const match = /^notifications\/(tools|resources|prompts)\/list_changed$/.exec(notification.method);
      if (match) this.dispatch(match[1] as ListChangeKind);
      else await before?.(notification);
    };
  }
}
