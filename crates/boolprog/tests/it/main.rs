//! Integration tests of the boolean-program front end: round trips, diagnostics, validation, Promela export, Moped's and boppo's dialects.

mod diagnostics_and_validation;
mod dialects;
mod round_trip;
