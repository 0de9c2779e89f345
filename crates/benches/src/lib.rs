//! Nothing but a home for the benchmarks in `benches/`; each says what it
//! measures and how to run it.
