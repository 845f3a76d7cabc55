package dev.redisbatch.springbatch.docs;

/**
 * A row of the examples' input file.
 *
 * @param id the order id
 * @param json the order as JSON
 */
public record Order(long id, String json) {

}
