package dev.redisbatch.docs;

/**
 * An order, as the documentation examples use it.
 *
 * @param id the id
 * @param json the order as JSON
 */
public record Order(long id, String json) {

}
