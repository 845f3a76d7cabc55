package dev.redisbatch.sample.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;

/**
 * The annotated count must not be above {@code sample.max-count}.
 *
 * @since 0.1.0
 */
@Documented
@Constraint(validatedBy = MaxCountValidator.class)
@Target({ ElementType.PARAMETER, ElementType.FIELD })
@Retention(RetentionPolicy.RUNTIME)
public @interface MaxCount {

	/**
	 * The message.
	 * @return the message template
	 */
	String message() default "must be less than or equal to {max} (sample.max-count)";

	/**
	 * The validation groups.
	 * @return the groups
	 */
	Class<?>[] groups() default {};

	/**
	 * The payload.
	 * @return the payload
	 */
	Class<? extends Payload>[] payload() default {};

}
