/**
 * HTTPRoute (gateway.networking.k8s.io/v1) as TypeScript types, transcribed from the Gateway
 * API v1 reference (standard channel) for the unknown-field check: neither kubernetes-types nor
 * kubernetes-models carries the Gateway API. Only the standard channel's fields; an
 * experimental field in a rendered route is refused like any unknown one.
 */
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';

export interface ParentReference {
  group?: string;
  kind?: string;
  namespace?: string;
  name: string;
  sectionName?: string;
  port?: number;
}

export interface HTTPPathMatch {
  type?: 'Exact' | 'PathPrefix' | 'RegularExpression';
  value?: string;
}

export interface HTTPHeaderMatch {
  type?: 'Exact' | 'RegularExpression';
  name: string;
  value: string;
}

export interface HTTPQueryParamMatch {
  type?: 'Exact' | 'RegularExpression';
  name: string;
  value: string;
}

export interface HTTPRouteMatch {
  path?: HTTPPathMatch;
  headers?: HTTPHeaderMatch[];
  queryParams?: HTTPQueryParamMatch[];
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'CONNECT' | 'OPTIONS' | 'TRACE' | 'PATCH';
}

export interface HTTPHeader {
  name: string;
  value: string;
}

export interface HTTPHeaderFilter {
  set?: HTTPHeader[];
  add?: HTTPHeader[];
  remove?: string[];
}

export interface HTTPPathModifier {
  type: 'ReplaceFullPath' | 'ReplacePrefixMatch';
  replaceFullPath?: string;
  replacePrefixMatch?: string;
}

export interface BackendObjectReference {
  group?: string;
  kind?: string;
  name: string;
  namespace?: string;
  port?: number;
}

export interface HTTPRouteFilter {
  type:
    | 'RequestHeaderModifier'
    | 'ResponseHeaderModifier'
    | 'RequestMirror'
    | 'RequestRedirect'
    | 'URLRewrite'
    | 'ExtensionRef';
  requestHeaderModifier?: HTTPHeaderFilter;
  responseHeaderModifier?: HTTPHeaderFilter;
  requestMirror?: {
    backendRef: BackendObjectReference;
    percent?: number;
    fraction?: { numerator: number; denominator?: number };
  };
  requestRedirect?: {
    scheme?: 'http' | 'https';
    hostname?: string;
    path?: HTTPPathModifier;
    port?: number;
    statusCode?: 301 | 302;
  };
  urlRewrite?: { hostname?: string; path?: HTTPPathModifier };
  extensionRef?: { group: string; kind: string; name: string };
}

export interface HTTPBackendRef extends BackendObjectReference {
  weight?: number;
  filters?: HTTPRouteFilter[];
}

export interface HTTPRouteRule {
  name?: string;
  matches?: HTTPRouteMatch[];
  filters?: HTTPRouteFilter[];
  backendRefs?: HTTPBackendRef[];
  timeouts?: { request?: string; backendRequest?: string };
}

export interface HTTPRouteSpec {
  parentRefs?: ParentReference[];
  hostnames?: string[];
  rules?: HTTPRouteRule[];
}

export interface HTTPRoute {
  apiVersion: 'gateway.networking.k8s.io/v1';
  kind: 'HTTPRoute';
  metadata: ObjectMeta;
  spec: HTTPRouteSpec;
}
