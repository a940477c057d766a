// Simulation layer
