package dev.sympathy.messages;

import java.io.Serializable;

/**
 * One level of the book (an entry of the price update's repeating group {@code levels}).
 *
 * @param price the level's price
 * @param quantity the quantity at that price
 * @param orders the orders at that price
 */
public record Level(double price, int quantity, int orders) implements Serializable {
}
