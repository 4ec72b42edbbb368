// The contract's error body for OpenAPI lives with the renderer in the platform library.
export { ErrorBodyDoc } from '@dl/platform/http';
