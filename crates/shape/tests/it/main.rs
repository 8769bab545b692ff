mod examples;
mod wp_props;
mod spin;
mod abstract_concrete;
mod fuzz;
