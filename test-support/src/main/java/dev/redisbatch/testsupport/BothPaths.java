package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that checks a batch's outcomes, so it runs on both paths a batch can take:
 * the fast path in every module's ordinary run, and the portable path in the
 * {@code portable-path} executions, which select the tag {@value #TAG} and set
 * {@code -Dredis.batch.fast-path.enabled=false} (the pool builder's default). A test
 * method about the fast path's own mechanics skips on the portable path with
 * {@link PortablePath#assumeFastPath(String)}.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(BothPaths.TAG)
public @interface BothPaths {

	/**
	 * The JUnit tag.
	 */
	String TAG = "both-paths";

}
