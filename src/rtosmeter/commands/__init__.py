"""One module per subcommand: a thin click layer over a function tests call."""
