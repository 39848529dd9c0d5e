/**
 * A cheaper `AsyncResource.prototype.bind` for the node versions whose bind is slow.
 *
 * Node's HTTP/2 client binds a fresh AsyncResource on every request
 * (`ClientHttp2Session.request`), so every data call pays for one bind. Node 20's bind puts a
 * deprecated `asyncResource` accessor (DEP0172) on the bound function, made of two
 * `util.deprecate` wrappers, and each wrapper sets a fresh function's prototype, which V8 makes
 * slow: ~8 µs a bind on this machine, against ~0.6 µs for the version here; 3% of the render
 * thread's busy time in a profile under load (nodejs/node#58218; newer node lines dropped the
 * prototype change).
 *
 * Behaviour is kept: the bound function runs `fn` in the resource's async scope with the same
 * `this` and arguments, has `fn`'s length, and its `asyncResource` still answers the resource
 * and warns once with DEP0172. It is installed only where node's own bind uses `deprecate`.
 */
import { AsyncResource } from 'node:async_hooks';

const RESOURCE = Symbol('asyncResource');

interface BoundFunction {
  [RESOURCE]?: AsyncResource;
}

let warned = false;

// One accessor for every bound function: it reads the resource from the function itself.
const ASYNC_RESOURCE_PROPERTY: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: BoundFunction) {
    if (!warned) {
      warned = true;
      process.emitWarning(
        'The asyncResource property on bound functions is deprecated',
        'DeprecationWarning',
        'DEP0172',
      );
    }
    return this[RESOURCE];
  },
  set(this: BoundFunction, value: AsyncResource) {
    this[RESOURCE] = value;
  },
};

// node's bind also takes a thisArg, which @types/node leaves out.
type Bind = (this: AsyncResource, fn: unknown, thisArg?: unknown) => unknown;
type Callable = (...args: unknown[]) => unknown;

const nodeBind = AsyncResource.prototype.bind as Bind;

function leanBind(this: AsyncResource, fn: unknown, thisArg?: unknown): unknown {
  // node's own bind validates and throws its ERR_INVALID_ARG_TYPE.
  if (typeof fn !== 'function') return nodeBind.call(this, fn, thisArg);
  const target = fn as Callable;
  const bound =
    thisArg === undefined
      ? inScopeOf(this, target)
      : this.runInAsyncScope.bind(this, target, thisArg);
  Object.defineProperty(bound, 'length', {
    configurable: true,
    enumerable: false,
    value: target.length,
    writable: false,
  });
  (bound as BoundFunction)[RESOURCE] = this;
  Object.defineProperty(bound, 'asyncResource', ASYNC_RESOURCE_PROPERTY);
  return bound;
}

/** `target` run in `resource`'s scope with the caller's `this`, as node's unbound case does. */
function inScopeOf(resource: AsyncResource, target: Callable): Callable {
  return function (this: unknown, ...args: unknown[]) {
    return resource.runInAsyncScope(target, this, ...args);
  };
}

/** Whether this node's bind is the slow one (it builds `deprecate` wrappers per call). */
export function hasSlowAsyncBind(bind: unknown = nodeBind): boolean {
  return /\bdeprecate\(/.test(Function.prototype.toString.call(bind));
}

/**
 * Installs the lean bind where node's is the slow one. Answers a function that puts node's back
 * (for tests), or undefined when nothing was installed.
 */
export function installLeanAsyncBind(): (() => void) | undefined {
  if (!hasSlowAsyncBind() || AsyncResource.prototype.bind !== (nodeBind as unknown))
    return undefined;
  AsyncResource.prototype.bind = leanBind as unknown as AsyncResource['bind'];
  return () => {
    AsyncResource.prototype.bind = nodeBind as unknown as AsyncResource['bind'];
  };
}
