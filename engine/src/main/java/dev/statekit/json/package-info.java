/**
 * The JSON reader for payloads from outside the process (Lambda events, HTTP events, ingress
 * envelopes), with bounds that make a hostile document cost no more than its length to read.
 */
package dev.statekit.json;
