/** `strapi.eventHub.subscribe(subscriber)`: called for every event, with its name first. */
export type EventSubscriber = (eventName: string, ...args: unknown[]) => unknown;
/** `strapi.eventHub.on(eventName, listener)`: called for that event, with what was emitted. */
export type EventListener = (...args: unknown[]) => unknown;

/** Strapi 5's `strapi.eventHub`, member for member. */
export interface EventHub {
  emit(eventName: string, ...args: unknown[]): Promise<void>;
  subscribe(subscriber: EventSubscriber): () => void;
  unsubscribe(subscriber: EventSubscriber): void;
  on(eventName: string, listener: EventListener): () => void;
  addListener(eventName: string, listener: EventListener): () => void;
  off(eventName: string, listener: EventListener): void;
  removeListener(eventName: string, listener: EventListener): void;
  once(eventName: string, listener: EventListener): () => void;
  removeAllListeners(): EventHub;
  removeAllSubscribers(): EventHub;
  destroy(): EventHub;
}

/** Whether emitting an event would reach app code (read by `hubListens`, kept off the hub Strapi's API shows). */
const reaches = new WeakMap<EventHub, (eventName: string) => boolean>();

/**
 * Strapi 5.54's event hub (core/services/event-hub.js): `emit` awaits each subscriber in turn (a default one calls
 * the event's listeners in turn), so a subscriber or listener that throws rejects `emit` and the ones after it are
 * not called. Members work detached (`const { on, emit } = strapi.eventHub`), as Strapi's closures do. Unlike
 * Strapi's, `off` of a listener that is not registered removes nothing (Strapi's removes the last listener of the
 * event), so `once` removes its own listener rather than whichever came last.
 */
export function createEventHub(): EventHub {
  const listeners = new Map<string, EventListener[]>();
  const defaultSubscriber: EventSubscriber = async (eventName, ...args) => {
    // A copy: a `once` listener removes itself while the loop runs.
    for (const listener of [...(listeners.get(eventName) ?? [])]) await listener(...args);
  };
  const subscribers: EventSubscriber[] = [defaultSubscriber];
  const hub: EventHub = {
    async emit(eventName, ...args) {
      for (const subscriber of [...subscribers]) await subscriber(eventName, ...args);
    },
    subscribe(subscriber) {
      subscribers.push(subscriber);
      return () => hub.unsubscribe(subscriber);
    },
    unsubscribe(subscriber) {
      const at = subscribers.indexOf(subscriber);
      if (at >= 0) subscribers.splice(at, 1);
    },
    on(eventName, listener) {
      const list = listeners.get(eventName);
      if (list) list.push(listener);
      else listeners.set(eventName, [listener]);
      return () => hub.off(eventName, listener);
    },
    addListener: (eventName, listener) => hub.on(eventName, listener),
    off(eventName, listener) {
      const list = listeners.get(eventName);
      const at = list ? list.indexOf(listener) : -1;
      if (at >= 0) list!.splice(at, 1);
    },
    removeListener: (eventName, listener) => hub.off(eventName, listener),
    once(eventName, listener) {
      const wrapper: EventListener = async (...args) => {
        hub.off(eventName, wrapper);
        return listener(...args);
      };
      return hub.on(eventName, wrapper);
    },
    removeAllListeners() {
      listeners.clear();
      return hub;
    },
    removeAllSubscribers() {
      subscribers.length = 0;
      return hub;
    },
    destroy() {
      hub.removeAllListeners();
      hub.removeAllSubscribers();
      return hub;
    },
  };
  reaches.set(hub, (eventName) => subscribers.some((s) => s !== defaultSubscriber) || (subscribers.includes(defaultSubscriber) && (listeners.get(eventName)?.length ?? 0) > 0));
  return hub;
}

/**
 * Whether emitting `eventName` on `hub` would call any app code (a subscriber, or a listener of that event): when
 * not, a write reads nothing for its event (the REST hot path stays as it is).
 */
export function hubListens(hub: EventHub, eventName: string): boolean {
  return reaches.get(hub)?.(eventName) ?? true;
}
