package dev.redisbatch.docs;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchResults;
import dev.redisbatch.reactive.ReactiveBatchTemplate;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The examples of docs/reactive.md.
 */
public class ReactiveExamples {

	private final ReactiveBatchTemplate<String, String> reactiveBatchTemplate;

	public ReactiveExamples(ReactiveBatchTemplate<String, String> reactiveBatchTemplate) {
		this.reactiveBatchTemplate = reactiveBatchTemplate;
	}

	/**
	 * Save a stream of orders in one batch, an hour each.
	 * @param orders the orders
	 * @return the results
	 */
	public Mono<BatchResults> saveOrders(Flux<Order> orders) {
		// tag::set-all[]
		return this.reactiveBatchTemplate.setAll(orders.map((order) -> Map.entry("order:" + order.id(), order.json())),
				Duration.ofHours(1));
		// end::set-all[]
	}

	/**
	 * Load orders by id, in the order of the ids.
	 * @param ids the ids
	 * @return the orders' JSON, {@code null} where an order does not exist
	 */
	public Mono<List<@Nullable String>> loadOrders(Flux<Long> ids) {
		// tag::get-all[]
		return this.reactiveBatchTemplate.getAll(ids.map((id) -> "order:" + id));
		// end::get-all[]
	}

	/**
	 * Several commands per element: count each order and index it by customer.
	 * @param orders the orders
	 * @return the results
	 */
	public Mono<BatchResults> indexOrders(Flux<Order> orders) {
		// tag::execute[]
		return this.reactiveBatchTemplate.execute(orders, (batch, order) -> {
			batch.set("order:" + order.id(), order.json());
			batch.sadd("orders:by-day:" + order.day(), String.valueOf(order.id()));
			batch.incr("orders:count");
		});
		// end::execute[]
	}

	/**
	 * An order.
	 *
	 * @param id the id
	 * @param json the order as JSON
	 */
	public record Order(long id, String json) {

		public String day() {
			return "2026-11-25";
		}

	}

}
