//! JSON Schemas of the rules files (placeholder, filled in below).
