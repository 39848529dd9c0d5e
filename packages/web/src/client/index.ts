/**
 * @strata/web/client: the browser side of the runtime — hydration, the router and its React
 * bindings.
 */
export { hydrateApp, type BootRecord } from './hydrate.js';
export { useNavigationPending, useParams, useRouter } from './react/hooks.js';
export { Link, type LinkProps } from './react/link.js';
export { CLIENT_ERROR_TEXT, RouterProvider } from './react/router-provider.js';
export {
  createRouter,
  type Router,
  type RouterEnvironment,
  type RouterSnapshot,
} from './router/create-router.js';
export { DEFAULT_ROUTER_CONSTANTS, type RouterConstants } from './router/router-constants.js';
