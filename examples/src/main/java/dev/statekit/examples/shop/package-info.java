/**
 * The shopping cart example: {@code shop/cart/<user>} asks {@code shop/inventory/<sku>} to reserve
 * stock, holds each reservation for a while through a cancellable delayed message to itself, and at
 * checkout cancels the holds and confirms the reservations; a hold that runs out releases its
 * stock.
 */
package dev.statekit.examples.shop;
