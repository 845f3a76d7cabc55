package dev.redisbatch.springbatch;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.batch.core.Job;
import org.springframework.batch.core.JobExecution;
import org.springframework.batch.core.JobParameters;
import org.springframework.batch.core.launch.JobLauncher;
import org.springframework.batch.core.launch.support.TaskExecutorJobLauncher;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.repository.support.JobRepositoryFactoryBean;
import org.springframework.batch.core.repository.support.ResourcelessJobRepository;
import org.springframework.batch.support.transaction.ResourcelessTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.Assert;

/**
 * The Spring Batch 5.2 form of {@code spring-batch}'s {@code Jobs}, which the shared
 * tests run their jobs with: a job repository and a launcher that runs jobs on the
 * calling thread, Spring Batch's JDBC job repository on an in-memory H2 database
 * (restarts need the executions of earlier runs), or its resourceless one.
 */
public final class Jobs implements AutoCloseable {

	/**
	 * Whether this line's Spring Batch skips, item by item, the items Redis refused, for
	 * a mapper that is not idempotent too: Spring Batch 5.2 does not, exactly-once or not
	 * (it writes a failed chunk's items again without updating the step's streams in
	 * between, so the writer refuses them; SpringBatch5LimitsTests).
	 */
	static final boolean SKIPS_REFUSED_ITEMS_OF_ANY_MAPPER = false;

	private final @Nullable EmbeddedDatabase database;

	private final PlatformTransactionManager transactionManager;

	private final JobRepository repository;

	private final JobLauncher launcher;

	private Jobs(@Nullable EmbeddedDatabase database, PlatformTransactionManager transactionManager,
			JobRepository repository) throws Exception {
		this.database = database;
		this.transactionManager = transactionManager;
		this.repository = repository;
		TaskExecutorJobLauncher launcher = new TaskExecutorJobLauncher();
		launcher.setJobRepository(this.repository);
		launcher.afterPropertiesSet();
		this.launcher = launcher;
	}

	/**
	 * Jobs whose executions are kept in an in-memory H2 database.
	 */
	static Jobs inMemory() {
		try {
			EmbeddedDatabase database = new EmbeddedDatabaseBuilder().generateUniqueName(true)
				.setType(EmbeddedDatabaseType.H2)
				.addScript("/org/springframework/batch/core/schema-h2.sql")
				.build();
			JdbcTransactionManager transactionManager = new JdbcTransactionManager(database);
			JobRepositoryFactoryBean repositoryFactory = new JobRepositoryFactoryBean();
			repositoryFactory.setDataSource(database);
			repositoryFactory.setTransactionManager(transactionManager);
			repositoryFactory.afterPropertiesSet();
			return new Jobs(database, transactionManager, repositoryFactory.getObject());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Jobs that keep nothing of their executions, as the documentation's examples run.
	 */
	public static Jobs resourceless() {
		try {
			return new Jobs(null, new ResourcelessTransactionManager(), new ResourcelessJobRepository());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	public JobRepository repository() {
		return this.repository;
	}

	public PlatformTransactionManager transactionManager() {
		return this.transactionManager;
	}

	DataSource dataSource() {
		Assert.state(this.database != null, "These jobs keep no database");
		return this.database;
	}

	/**
	 * Run a job with no parameters.
	 */
	public JobExecution start(Job job) {
		return start(job, new JobParameters());
	}

	public JobExecution start(Job job, JobParameters parameters) {
		try {
			return this.launcher.run(job, parameters);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Run a job again with the parameters of a failed execution: Spring Batch restarts
	 * the failed steps from their saved state.
	 */
	JobExecution restart(Job job, JobExecution failed) {
		return start(job, failed.getJobParameters());
	}

	@Override
	public void close() {
		if (this.database != null) {
			this.database.shutdown();
		}
	}

}
