import HeapModule
