// Reporting layer
