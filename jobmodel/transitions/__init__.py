"""Pure transitions: controller steps and the environment's moves."""
