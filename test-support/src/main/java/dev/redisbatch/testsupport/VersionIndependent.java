package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class whose outcome depends on no library version (package rules, memory in a
 * small heap, the rate cap, virtual threads, the documentation's text): it runs in its
 * own module's build only, and the compatibility modules exclude the tag {@value #TAG}.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(VersionIndependent.TAG)
public @interface VersionIndependent {

	/**
	 * The JUnit tag.
	 */
	String TAG = "version-independent";

}
