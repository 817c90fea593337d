"""Pure transitions: controller steps, the simulated cluster, and the environments' moves."""
