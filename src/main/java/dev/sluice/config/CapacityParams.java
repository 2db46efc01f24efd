package dev.sluice.config;

import java.util.OptionalInt;

/**
 * How much traffic a deployment takes: its {@code rpm} and {@code tpm}, which usage-based routing
 * weighs and the deployment's rate limits enforce.
 */
public record CapacityParams(OptionalInt rpm, OptionalInt tpm) {}
