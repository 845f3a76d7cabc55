package dev.redisbatch.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP client for the sample's endpoints, so that tests see exactly what
 * {@code curl} would: status, content type and JSON body.
 */
final class SampleClient {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String base;

	SampleClient(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	Reply get(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)).GET());
	}

	Reply put(String path) {
		return send(HttpRequest.newBuilder(URI.create(this.base + path)).PUT(HttpRequest.BodyPublishers.noBody()));
	}

	CompletableFuture<Reply> getAsync(String path) {
		return this.http
			.sendAsync(request(HttpRequest.newBuilder(URI.create(this.base + path)).GET()),
					HttpResponse.BodyHandlers.ofString())
			.thenApply(Reply::of);
	}

	private Reply send(HttpRequest.Builder builder) {
		try {
			return Reply.of(this.http.send(request(builder), HttpResponse.BodyHandlers.ofString()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static HttpRequest request(HttpRequest.Builder builder) {
		return builder.timeout(Duration.ofSeconds(120)).header("Accept", "application/json").build();
	}

	record Reply(int status, String contentType, JsonNode body) {

		static Reply of(HttpResponse<String> response) {
			String text = response.body();
			JsonNode body = (text == null || text.isBlank()) ? json.missingNode() : json.readTree(text);
			return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), body);
		}

	}

}
