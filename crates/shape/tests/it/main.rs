mod examples;
mod wp_props;
