"""The expansion packs, each a package so that its entry point finds its folder."""
