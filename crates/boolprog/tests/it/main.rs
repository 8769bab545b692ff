//! Integration tests of the boolean-program front end: round trips, diagnostics, validation, Promela export.

mod diagnostics_and_validation;
mod round_trip;
