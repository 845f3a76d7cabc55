package dev.redisbatch.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that needs the other Spring Boot generation's starter on the classpath in
 * place of the line's own: it runs only in the compatibility modules'
 * {@code wrong-starter} executions, which select the tag {@value #TAG} and set that
 * classpath; every other run excludes it.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(WrongStarter.TAG)
public @interface WrongStarter {

	/**
	 * The JUnit tag.
	 */
	String TAG = "wrong-starter";

}
