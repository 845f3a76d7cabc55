package dev.redisbatch.docs;

import java.util.List;
import java.util.Map;

import dev.redisbatch.BatchResults;
import dev.redisbatch.CommandReply;
import dev.redisbatch.Response;
import dev.redisbatch.StringBatchTemplate;

/**
 * The examples of "Any command" in docs/api-guide.md: commands that {@code Batch} has no
 * method for, sent by name.
 */
public class CommandExamples {

	private final StringBatchTemplate batchTemplate;

	public CommandExamples(StringBatchTemplate batchTemplate) {
		this.batchTemplate = batchTemplate;
	}

	/**
	 * Append events to a stream and count its entries, in one batch.
	 * @param stream the stream's key
	 * @param events the events, as field-value maps
	 * @return the ids of the new entries, then the length of the stream
	 */
	public StreamAppend appendEvents(String stream, List<Map<String, String>> events) {
		// tag::xadd[]
		List<Response<String>> ids = new java.util.ArrayList<>();
		Response<Long>[] length = new Response[1];
		this.batchTemplate.execute((batch) -> {
			for (Map<String, String> event : events) {
				// XADD <stream> MAXLEN ~ 100000 * field value ...
				ids.add(batch.command("XADD", CommandReply.string(), (args) -> {
					args.key(stream).arg("MAXLEN").arg("~").arg(100_000).arg("*");
					event.forEach((field, value) -> args.arg(field).value(value));
				}));
			}
			length[0] = batch.command("XLEN", CommandReply.integer(), stream);
		});
		// end::xadd[]
		return new StreamAppend(ids.stream().map(Response::get).toList(), length[0].get());
	}

	/**
	 * Count unique visitors per page with HyperLogLogs.
	 * @param visitsByPage the visitor ids of each page
	 * @return the estimated number of unique visitors of each page
	 */
	public Map<String, Long> uniqueVisitors(Map<String, List<String>> visitsByPage) {
		// tag::pfadd[]
		Map<String, Response<Long>> counts = new java.util.LinkedHashMap<>();
		BatchResults results = this.batchTemplate.execute((batch) -> visitsByPage.forEach((page, visitors) -> {
			batch.command("PFADD", CommandReply.integer(), "visitors:" + page, visitors.toArray(String[]::new));
			counts.put(page, batch.command("PFCOUNT", CommandReply.integer(), "visitors:" + page));
		}));
		// end::pfadd[]
		Map<String, Long> estimates = new java.util.LinkedHashMap<>();
		counts.forEach((page, count) -> estimates.put(page, count.get()));
		return estimates;
	}

	/**
	 * Read a stream's entries with an array reply converted to the caller's type.
	 * @param stream the stream's key
	 * @return the ids of its entries, oldest first
	 */
	public List<String> entryIds(String stream) {
		// tag::array[]
		Response<List<String>>[] ids = new Response[1];
		this.batchTemplate.execute((batch) -> ids[0] = batch.command("XRANGE",
				// each entry is [id, [field, value, ...]]; ids are bulk strings, byte[]
				// in the tree
				CommandReply.array()
					.map((entries) -> entries.stream()
						.map((entry) -> new String((byte[]) ((List<?>) entry).get(0),
								java.nio.charset.StandardCharsets.UTF_8))
						.toList()),
				(args) -> args.key(stream).arg("-").arg("+")));
		// end::array[]
		return ids[0].get();
	}

	/**
	 * What {@link #appendEvents} returns.
	 *
	 * @param ids the entry ids
	 * @param length the length of the stream afterwards
	 */
	public record StreamAppend(List<String> ids, long length) {
	}

}
