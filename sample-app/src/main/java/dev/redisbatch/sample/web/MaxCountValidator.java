package dev.redisbatch.sample.web;

import dev.redisbatch.sample.SampleProperties;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;
import org.jspecify.annotations.Nullable;

/**
 * Checks {@link MaxCount} against {@code sample.max-count}. Spring creates it, so it can
 * read the properties.
 *
 * @since 0.1.0
 */
public class MaxCountValidator implements ConstraintValidator<MaxCount, Integer> {

	private final SampleProperties properties;

	/**
	 * Create the validator.
	 * @param properties the sample's properties
	 */
	public MaxCountValidator(SampleProperties properties) {
		this.properties = properties;
	}

	@Override
	public boolean isValid(@Nullable Integer value, ConstraintValidatorContext context) {
		int max = this.properties.getMaxCount();
		if (value == null || value <= max) {
			return true;
		}
		context.unwrap(HibernateConstraintValidatorContext.class).addMessageParameter("max", max);
		return false;
	}

}
