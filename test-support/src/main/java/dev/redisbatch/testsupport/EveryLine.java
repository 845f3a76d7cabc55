package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that touches Lettuce, Netty, Spring Data Redis, Spring Boot or Spring
 * Batch where their versions differ, and is the suite of its area that every
 * compatibility module runs again on its line's versions. {@code compat/boot-4.0} selects
 * the tag {@value #TAG} and runs these alone; {@code compat/boot-3.5} and
 * {@code compat/lettuce-7.7} run every test class they compile but those marked
 * {@link VersionIndependent}, these included.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(EveryLine.TAG)
public @interface EveryLine {

	/**
	 * The JUnit tag.
	 */
	String TAG = "every-line";

}
