/**
 * The invocation engine shared by every way of serving functions: runs a batch of messages on one
 * address, threading state and collecting each invocation's effects, with no transport attached.
 * Public only so StateKit's own packages can use it; not for users, and it may change in any
 * release.
 */
package dev.statekit.invocation;
