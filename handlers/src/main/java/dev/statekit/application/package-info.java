/**
 * An application declared once: {@link dev.statekit.application.Application} (functions, pipelines,
 * egress queues, local settings, a demo {@link dev.statekit.application.Scenario}), named in {@code
 * template.yaml} by {@code STATEKIT_APPLICATION} through a {@link
 * dev.statekit.application.StateKitApplication}. The Lambda handlers wire it on AWS; the local
 * runner wires the same declaration on its servers or in memory.
 */
package dev.statekit.application;
