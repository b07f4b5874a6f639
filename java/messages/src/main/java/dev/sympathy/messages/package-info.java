/**
 * Typed messages of sympathy's SBE schema ({@code schema/sympathy-messages.xml}): values, checked
 * encode and decode over the generated codecs of {@code dev.sympathy.messages.sbe}.
 */
package dev.sympathy.messages;
