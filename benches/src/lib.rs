//! Shared inputs and helpers for the ferrymcp benchmarks.
