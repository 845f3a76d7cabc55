package dev.redisbatch.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The sample application. Run it with {@code ./mvnw -pl sample-app -am spring-boot:run}
 * and open {@code http://localhost:8080/}.
 *
 * @since 0.1.0
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class SampleApplication {

	/**
	 * Start the application.
	 * @param args command-line arguments, such as {@code --sample.simulated-rtt=5ms}
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
