/** `ferrymcp/experimental/index.js`: the v1 experimental APIs (tasks). */
export * from './tasks/index.js';
