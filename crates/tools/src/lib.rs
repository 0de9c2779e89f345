//! The carcassonne-rules tools that answer questions about checked rules:
//! [`verify`] proves properties of the model over every selection at once,
//! [`explain`] says why an item shows or not for one selection, and
//! [`interpret`] computes a turn order straight from the model (for rules not
//! compiled in, and as the oracle of the generated code). The first two
//! decide conditions with the front end's `logic`.

#![forbid(unsafe_code)]

pub mod explain;
pub mod interpret;
pub mod verify;
