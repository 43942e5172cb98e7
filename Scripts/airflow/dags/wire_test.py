# The one Dag the wire tests trigger (Tests/GeneratedClientWireTests). No
# scheduler runs beside the test server, so its runs stay queued until a test sets their state
# through the API: that is what lets a test watch the "wait" stream deliver lines over time.
import pendulum
from airflow.sdk import dag, task


@dag(dag_id="wire_test", schedule=None, start_date=pendulum.datetime(2024, 1, 1, tz="UTC"), catchup=False)
def wire_test():
    @task
    def noop():
        return "done"

    noop()


wire_test()
