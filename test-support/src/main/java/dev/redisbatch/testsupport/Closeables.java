package dev.redisbatch.testsupport;

import java.util.ArrayList;
import java.util.List;

/**
 * What a test opened (servers, proxies, pools), closed in the reverse order when the test
 * ends: a field annotated with JUnit's {@code @AutoClose}.
 *
 * @since 0.1.0
 */
public final class Closeables implements AutoCloseable {

	private final List<AutoCloseable> resources = new ArrayList<>();

	/**
	 * Close this resource when the test ends, before those tracked earlier.
	 * @param <T> its type
	 * @param resource the resource
	 * @return the resource
	 */
	public <T extends AutoCloseable> T track(T resource) {
		this.resources.add(resource);
		return resource;
	}

	@Override
	public void close() throws Exception {
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
		this.resources.clear();
	}

}
