"""Players behind one interface, and complete matches played by them."""
