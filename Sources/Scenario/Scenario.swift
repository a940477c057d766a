// Scenario layer
