package dev.redisbatch.autoconfigure;

import dev.redisbatch.BatchTemplate;

/**
 * Customizes the auto-configured {@code stringBatchTemplate} and {@code batchTemplate}
 * before they are used. Applied in order.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface BatchTemplateCustomizer {

	/**
	 * Customize a template.
	 * @param template the template
	 */
	void customize(BatchTemplate<?, ?> template);

}
