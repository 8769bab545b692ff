mod wp_props;
