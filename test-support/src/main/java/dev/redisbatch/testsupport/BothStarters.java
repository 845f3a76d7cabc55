package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that needs both Spring Boot generations' starters on the classpath at
 * once: it runs only in the compatibility modules' {@code both-starters} executions,
 * which select the tag {@value #TAG} and set that classpath; every other run excludes it.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(BothStarters.TAG)
public @interface BothStarters {

	/**
	 * The JUnit tag.
	 */
	String TAG = "both-starters";

}
