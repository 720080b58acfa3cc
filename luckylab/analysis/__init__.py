"""Questions about the games, answered with exact counts, exact solvers or seeded simulations."""
