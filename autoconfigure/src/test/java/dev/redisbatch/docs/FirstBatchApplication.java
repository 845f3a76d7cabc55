package dev.redisbatch.docs;

import java.util.List;

import dev.redisbatch.BatchResults;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class FirstBatchApplication {

	public static void main(String[] args) {
		SpringApplication.run(FirstBatchApplication.class, args);
	}

	@Bean
	CommandLineRunner firstBatch(OrderCache orderCache) {
		return (args) -> {
			BatchResults results = orderCache.cacheAll(List.of(new Order(1, "{\"total\":9.5}"), new Order(2, "{}")));
			System.out.println(results.size() + " commands in " + results.chunks() + " chunk(s): "
					+ (results.isSuccess() ? "all succeeded" : results.failures()));
			System.out.println(orderCache.findAll(List.of(1L, 2L, 3L)));
		};
	}

}
