//! A bit-precise concrete interpreter over the IR (filled in by the front-end work; see issue 3).
