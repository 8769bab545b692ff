mod examples;
mod wp_props;
mod spin;
