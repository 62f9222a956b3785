/** The smallest StateKit application: a greeting that counts visits in the application table. */
package dev.statekit.examples.hello;
