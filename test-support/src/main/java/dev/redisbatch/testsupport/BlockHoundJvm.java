package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that installs BlockHound's agent, which changes the JVM it is installed
 * in: it runs in a JVM of its own, in the {@code blockhound} execution, which selects the
 * tag {@value #TAG} and lets the agent instrument; every other run excludes it.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(BlockHoundJvm.TAG)
public @interface BlockHoundJvm {

	/**
	 * The JUnit tag.
	 */
	String TAG = "blockhound";

}
