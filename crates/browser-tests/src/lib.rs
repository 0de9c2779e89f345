//! Nothing but a home for `tests/site.rs`, the order-of-play page in a real,
//! headless Chromium; see that file.
